import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import type { PaymentMethodType } from '../../common/payment-methods';
import type { Event } from './event.entity';

/**
 * The columns of an accepted payment method, an event's or a series template's: each table adds
 * its id and owner.
 */
export abstract class PaymentMethodColumns {
  @Column({ type: 'varchar', length: 16 })
  type: PaymentMethodType;

  /** Internal payment method number (`pm_<n>`), null for externally held ones. */
  @Column({ name: 'payment_method_id', type: Number, nullable: true })
  paymentMethodId: number | null;

  @Column({ name: 'external_id', type: String, length: 255, nullable: true })
  externalId: string | null;

  @Column({ type: String, length: 200, nullable: true })
  name: string | null;

  @Column({ type: String, length: 2000, nullable: true })
  instructions: string | null;
}

/** A payment method an event accepts, as an order's `payment_method` names it. */
@Entity({ name: 'event_payment_methods' })
@Index('IDX_event_payment_methods_event', ['eventId', 'id'])
export class EventPaymentMethod extends PaymentMethodColumns {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'event_id', type: 'integer' })
  eventId: number;

  @ManyToOne('Event', 'paymentMethods', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;
}
