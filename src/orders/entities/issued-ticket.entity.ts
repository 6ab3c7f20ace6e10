import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { bigintAsNumber, jsonText } from '../../database/column-transformers';
import { EventSummary } from './event-summary.entity';
import type { CustomQuestion, Order } from './order.entity';

export const ISSUED_TICKET_STATUSES = ['valid', 'void'] as const;
export type IssuedTicketStatus = (typeof ISSUED_TICKET_STATUSES)[number];

/** A ticket issued for an order; `voided_at` is set exactly when `status` is `void`. */
@Entity({ name: 'issued_tickets' })
@Index('IDX_issued_tickets_order', ['orderId', 'id'])
export class IssuedTicket {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'order_id', type: 'integer' })
  orderId: number;

  @ManyToOne('Order', 'issuedTickets', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'order_id' })
  order?: Order;

  /** Always the order's event; kept on the ticket as Ticket Tailor does. */
  @Index('IDX_issued_tickets_event')
  @Column({ name: 'event_id', type: 'integer' })
  eventId: number;

  @ManyToOne(() => EventSummary, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'event_id' })
  event?: EventSummary;

  @Column({ type: 'varchar', length: 8 })
  status: IssuedTicketStatus;

  @Index('IDX_issued_tickets_barcode')
  @Column({ type: 'varchar', length: 64 })
  barcode: string;

  @Column({ name: 'barcode_url', type: 'varchar', length: 500 })
  barcodeUrl: string;

  @Column({ name: 'qr_code_url', type: 'varchar', length: 500 })
  qrCodeUrl: string;

  @Column({ type: 'varchar', length: 500 })
  description: string;

  @Column({ name: 'first_name', type: String, length: 200, nullable: true })
  firstName: string | null;

  @Column({ name: 'last_name', type: String, length: 200, nullable: true })
  lastName: string | null;

  @Column({ name: 'full_name', type: String, length: 400, nullable: true })
  fullName: string | null;

  /** Seat from a seating chart; null when the event has none. */
  @Column({ type: String, length: 100, nullable: true })
  reservation: string | null;

  @Column({ name: 'custom_questions', type: 'text', transformer: jsonText })
  customQuestions: CustomQuestion[];

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintAsNumber })
  createdAt: number;

  @Column({ name: 'updated_at', type: 'bigint', transformer: bigintAsNumber })
  updatedAt: number;

  @Column({
    name: 'voided_at',
    type: 'bigint',
    nullable: true,
    transformer: bigintAsNumber,
  })
  voidedAt: number | null;
}
