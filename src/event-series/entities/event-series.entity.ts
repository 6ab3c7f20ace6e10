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
import { bigintAsNumber } from '../../database/column-transformers';
import type { EventStatus } from '../../common/statuses';
import type {
  EventSeriesPaymentMethod,
  EventSeriesTicketGroup,
  EventSeriesTicketType,
} from './event-series-template.entity';

/**
 * The template that dated events are made from ("Comedy Night"; its events are "Comedy Night on
 * 14 March"): what its dates share, and the ticket types, groups and payment methods a new date
 * starts with. Its events name it by `event_series_id`, in the same box office, with its currency
 * and time zone. Its counts are read from its events (docs/API.md, "Event series").
 */
@Entity({ name: 'event_series' })
@Index('IDX_event_series_list', ['boxOfficeId', 'createdAt', 'id'])
@Index('IDX_event_series_status', ['boxOfficeId', 'status', 'createdAt', 'id'])
export class EventSeries {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'box_office_id', type: 'integer' })
  boxOfficeId: number;

  @ManyToOne(() => BoxOffice, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'box_office_id' })
  boxOffice?: BoxOffice;

  @Column({ type: 'varchar', length: 300 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 16, default: 'published' })
  status: EventStatus;

  /** Unix seconds. */
  @Column({ name: 'created_at', type: 'bigint', transformer: bigintAsNumber })
  createdAt: number;

  /** Lower-case currency code, shared by its events. */
  @Column({ type: 'varchar', length: 3 })
  currency: string;

  /** IANA zone name, shared by its events. */
  @Column({ type: 'varchar', length: 64 })
  timezone: string;

  @Column({ name: 'venue_name', type: String, length: 300, nullable: true })
  venueName: string | null;

  @Column({
    name: 'venue_postal_code',
    type: String,
    length: 32,
    nullable: true,
  })
  venuePostalCode: string | null;

  /** The public series page (absolute https URL). */
  @Column({ type: 'varchar', length: 500 })
  url: string;

  @Column({ name: 'image_header_url', type: 'varchar', length: 500 })
  imageHeaderUrl: string;

  @Column({ name: 'image_thumbnail_url', type: 'varchar', length: 500 })
  imageThumbnailUrl: string;

  @Column({ name: 'online_event', type: 'boolean', default: false })
  onlineEvent: boolean;

  @Column({ type: 'boolean', default: false })
  private: boolean;

  @Column({ name: 'access_code', type: String, length: 64, nullable: true })
  accessCode: string | null;

  @Column({
    name: 'call_to_action',
    type: 'varchar',
    length: 100,
    default: 'Buy tickets',
  })
  callToAction: string;

  /** The most tickets one date may sell in all; null for no limit beyond its types'. */
  @Column({
    name: 'max_tickets_sold_per_occurrence',
    type: Number,
    nullable: true,
  })
  maxTicketsSoldPerOccurrence: number | null;

  @OneToMany('EventSeriesTicketType', 'series', { cascade: true })
  ticketTypes?: EventSeriesTicketType[];

  @OneToMany('EventSeriesTicketGroup', 'series', { cascade: true })
  ticketGroups?: EventSeriesTicketGroup[];

  @OneToMany('EventSeriesPaymentMethod', 'series', { cascade: true })
  paymentMethods?: EventSeriesPaymentMethod[];
}
