import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  OneToMany,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { BoxOffice } from '../../auth/entities/box-office.entity';
import { bigintAsNumber, jsonText } from '../../database/column-transformers';
import type { PaymentMethodType } from '../../common/payment-methods';
import { Event } from '../../events/entities/event.entity';
import { IssuedTicket } from '../../issued-tickets/entities/issued-ticket.entity';
import { LineItem } from './line-item.entity';

export const ORDER_STATUSES = ['completed', 'pending', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export interface CustomQuestion {
  question: string;
  answer: string | null;
}

/**
 * A buyer's purchase for one event. Buyer details and the payment method are one-to-one with the
 * order, so they are columns here; line items and issued tickets are child tables.
 * Money is integer minor units of `currency`.
 */
@Entity({ name: 'orders' })
@Index('IDX_orders_list', ['boxOfficeId', 'createdAt', 'id'])
@Index('IDX_orders_event', ['boxOfficeId', 'eventId', 'createdAt', 'id'])
@Index('IDX_orders_status', ['boxOfficeId', 'status', 'createdAt', 'id'])
@Index('IDX_orders_email', [
  'boxOfficeId',
  'buyerEmailLookup',
  'createdAt',
  'id',
])
@Index('IDX_orders_txn', ['boxOfficeId', 'txnId', 'createdAt', 'id'])
// PostgreSQL's trigram index of the buyer's e-mail within events (migration TicketSearchByEvent):
// an expression index TypeORM cannot describe, named for the schema builder to leave alone.
@Index('IDX_orders_search_event_email', { synchronize: false })
// The updated_at sorts and filters (docs/API.md, "Incremental sync").
@Index('IDX_orders_updated', ['boxOfficeId', 'updatedAt', 'id'])
export class Order {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'box_office_id', type: 'integer' })
  boxOfficeId: number;

  @ManyToOne(() => BoxOffice, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'box_office_id' })
  boxOffice?: BoxOffice;

  @Column({ name: 'event_id', type: 'integer' })
  eventId: number;

  @ManyToOne(() => Event, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @Column({ type: 'varchar', length: 16 })
  status: OrderStatus;

  @Column({ name: 'status_message', type: String, length: 500, nullable: true })
  statusMessage: string | null;

  /** Lower-case currency code (docs/API.md, Money). */
  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ type: 'integer' })
  subtotal: number;

  @Column({ type: 'integer' })
  tax: number;

  @Column({ type: 'integer' })
  total: number;

  @Column({ name: 'refund_amount', type: 'integer', default: 0 })
  refundAmount: number;

  @Column({ name: 'txn_id', type: String, length: 255, nullable: true })
  txnId: string | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintAsNumber })
  createdAt: number;

  @Column({ name: 'updated_at', type: 'bigint', transformer: bigintAsNumber })
  updatedAt: number;

  /** The buyer's full name: their first and last names joined, when both are given. */
  @Column({ name: 'buyer_name', type: 'varchar', length: 300 })
  buyerName: string;

  @Column({
    name: 'buyer_first_name',
    type: String,
    length: 200,
    nullable: true,
  })
  buyerFirstName: string | null;

  @Column({
    name: 'buyer_last_name',
    type: String,
    length: 200,
    nullable: true,
  })
  buyerLastName: string | null;

  @Column({ name: 'buyer_email', type: 'varchar', length: 320 })
  buyerEmail: string;

  /**
   * `buyer_email` lower-cased when written, so that the case-insensitive `email` filter is an
   * indexed equality that behaves the same on SQLite (whose lower() is ASCII-only) and PostgreSQL.
   */
  @Column({ name: 'buyer_email_lookup', type: 'varchar', length: 320 })
  buyerEmailLookup: string;

  @Column({ name: 'buyer_phone', type: String, length: 64, nullable: true })
  buyerPhone: string | null;

  @Column({ name: 'address_1', type: 'varchar', length: 300 })
  address1: string;

  @Column({ name: 'address_2', type: String, length: 300, nullable: true })
  address2: string | null;

  @Column({ name: 'address_3', type: String, length: 300, nullable: true })
  address3: string | null;

  @Column({ name: 'postal_code', type: String, length: 32, nullable: true })
  postalCode: string | null;

  /** JSON array of `{question, answer}`. */
  @Column({
    name: 'buyer_custom_questions',
    type: 'text',
    transformer: jsonText,
  })
  buyerCustomQuestions: CustomQuestion[];

  @Column({ name: 'payment_method_type', type: 'varchar', length: 16 })
  paymentMethodType: PaymentMethodType;

  /** Internal payment method number (`pm_<n>`), null for externally held ones. */
  @Column({ name: 'payment_method_id', type: Number, nullable: true })
  paymentMethodId: number | null;

  @Column({
    name: 'payment_method_external_id',
    type: String,
    length: 255,
    nullable: true,
  })
  paymentMethodExternalId: string | null;

  @Column({
    name: 'payment_method_name',
    type: String,
    length: 200,
    nullable: true,
  })
  paymentMethodName: string | null;

  @Column({
    name: 'payment_method_instructions',
    type: String,
    length: 2000,
    nullable: true,
  })
  paymentMethodInstructions: string | null;

  @OneToMany(() => LineItem, (item) => item.order, { cascade: true })
  lineItems?: LineItem[];

  @OneToMany(() => IssuedTicket, (ticket) => ticket.order, { cascade: true })
  issuedTickets?: IssuedTicket[];
}
