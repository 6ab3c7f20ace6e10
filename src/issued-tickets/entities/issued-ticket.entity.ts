import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { BoxOffice } from '../../auth/entities/box-office.entity';
import type { IssuedTicketStatus } from '../../common/statuses';
import { bigintAsNumber, jsonText } from '../../database/column-transformers';
import { TicketType } from '../../events/entities/ticket-type.entity';
import { Event } from '../../events/entities/event.entity';
import type { CustomQuestion, Order } from '../../orders/entities/order.entity';

/**
 * A ticket issued for an order; `voided_at` is set exactly when `status` is `void`, and voiding
 * moves `updated_at` (to `voided_at` or later). Served inside its order and on its own.
 */
@Entity({ name: 'issued_tickets' })
@Index('IDX_issued_tickets_order', ['orderId', 'id'])
@Index('IDX_issued_tickets_list', ['boxOfficeId', 'createdAt', 'id'])
@Index('IDX_issued_tickets_event_list', [
  'boxOfficeId',
  'eventId',
  'createdAt',
  'id',
])
@Index('IDX_issued_tickets_status', [
  'boxOfficeId',
  'status',
  'createdAt',
  'id',
])
@Index('IDX_issued_tickets_updated', ['boxOfficeId', 'updatedAt', 'id'])
// The list filtered by order or by barcode (a door scan), read in list order: without them the
// list index is walked through the whole box office, checking each ticket.
@Index('IDX_issued_tickets_order_list', [
  'boxOfficeId',
  'orderId',
  'createdAt',
  'id',
])
@Index('IDX_issued_tickets_barcode_list', [
  'boxOfficeId',
  'barcode',
  'createdAt',
  'id',
])
// PostgreSQL's trigram index for a search within events, led by the event (migration
// TicketSearchByEvent): an expression index TypeORM cannot describe, so it is named here for the
// schema builder to leave alone (it sees only its event_id column). SQLite has no such index.
@Index('IDX_issued_tickets_search_event_name', { synchronize: false })
export class IssuedTicket {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  /** Always the order's box office; kept on the ticket so that its own list has an index. */
  @Column({ name: 'box_office_id', type: 'integer' })
  boxOfficeId: number;

  @ManyToOne(() => BoxOffice, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'box_office_id' })
  boxOffice?: BoxOffice;

  /** The ticket type it was sold as; null for tickets issued before ticket types were kept. */
  @Index('IDX_issued_tickets_ticket_type')
  @Column({ name: 'ticket_type_id', type: Number, nullable: true })
  ticketTypeId: number | null;

  @ManyToOne(() => TicketType, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'ticket_type_id' })
  ticketType?: TicketType | null;

  /** Null for a ticket issued on its own (POST /v1/issued_tickets), as Ticket Tailor's are. */
  @Column({ name: 'order_id', type: Number, nullable: true })
  orderId: number | null;

  @ManyToOne('Order', 'issuedTickets', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'order_id' })
  order?: Order;

  /** Always the order's event; kept on the ticket as Ticket Tailor does. */
  @Index('IDX_issued_tickets_event')
  @Column({ name: 'event_id', type: 'integer' })
  eventId: number;

  @ManyToOne(() => Event, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

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

  /** Its check-ins sum to 1: kept by the database's triggers (migration CheckIns). */
  @Column({ name: 'checked_in', type: 'boolean', default: false })
  checkedIn: boolean;

  /**
   * True once it has any check-in, kept with `checked_in` by the check-ins' trigger: what an
   * event's attendance counts as `entered` (migration AttendanceCounts).
   */
  @Column({ type: 'boolean', default: false })
  entered: boolean;

  /** The e-mail of a ticket issued without an order; a ticket of an order shows its order's. */
  @Column({ type: String, length: 320, nullable: true })
  email: string | null;
}
