import {
  Check,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { BoxOffice } from '../../auth/entities/box-office.entity';
import { bigintAsNumber } from '../../database/column-transformers';
import { IssuedTicket } from '../../issued-tickets/entities/issued-ticket.entity';

/** A door scan of an issued ticket: 1 checks it in, -1 checks it out (docs/API.md, CheckIn). */
@Entity({ name: 'check_ins' })
@Check('CHK_check_ins_quantity', 'quantity IN (1, -1)')
@Index('IDX_check_ins_list', ['boxOfficeId', 'createdAt', 'id'])
@Index('IDX_check_ins_event', ['boxOfficeId', 'eventId', 'createdAt', 'id'])
@Index('IDX_check_ins_series', [
  'boxOfficeId',
  'eventSeriesId',
  'createdAt',
  'id',
])
@Index('IDX_check_ins_ticket', [
  'boxOfficeId',
  'issuedTicketId',
  'createdAt',
  'id',
])
export class CheckIn {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'box_office_id', type: 'integer' })
  boxOfficeId: number;

  @ManyToOne(() => BoxOffice, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'box_office_id' })
  boxOffice?: BoxOffice;

  @Index('IDX_check_ins_issued_ticket')
  @Column({ name: 'issued_ticket_id', type: 'integer' })
  issuedTicketId: number;

  @ManyToOne(() => IssuedTicket, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'issued_ticket_id' })
  issuedTicket?: IssuedTicket;

  /** Its ticket's event and that event's series, copied so that their filters have an index. */
  @Column({ name: 'event_id', type: 'integer' })
  eventId: number;

  @Column({ name: 'event_series_id', type: 'integer' })
  eventSeriesId: number;

  /** 1: checked in; -1: checked out. */
  @Column({ type: 'integer' })
  quantity: number;

  /** When it was scanned (an offline scan is recorded later). */
  @Column({ name: 'check_in_at', type: 'bigint', transformer: bigintAsNumber })
  checkInAt: number;

  /** When it was recorded. */
  @Column({ name: 'created_at', type: 'bigint', transformer: bigintAsNumber })
  createdAt: number;
}
