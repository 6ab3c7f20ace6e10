import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { TicketType } from '../../events/entities/ticket-type.entity';
import { Discount } from './discount.entity';

/** A ticket type a discount applies to; a discount with none applies to every type. */
@Entity({ name: 'discount_ticket_types' })
@Index('IDX_discount_ticket_types_discount', ['discountId', 'ticketTypeId'], {
  unique: true,
})
@Index('IDX_discount_ticket_types_ticket_type', ['ticketTypeId', 'discountId'])
export class DiscountTicketType {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'discount_id', type: 'integer' })
  discountId: number;

  @ManyToOne(() => Discount, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'discount_id' })
  discount?: Discount;

  @Column({ name: 'ticket_type_id', type: 'integer' })
  ticketTypeId: number;

  @ManyToOne(() => TicketType, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'ticket_type_id' })
  ticketType?: TicketType;
}
