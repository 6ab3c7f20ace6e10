import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { BoxOffice } from '../../auth/entities/box-office.entity';
import { bigintAsNumber } from '../../database/column-transformers';

/**
 * What an order needs to know about its event: name, start and end instants and the IANA time
 * zone the date objects are shown in. The full Event resource is not served by this API.
 */
@Entity({ name: 'events' })
export class EventSummary {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Index('IDX_events_box_office')
  @Column({ name: 'box_office_id', type: 'integer' })
  boxOfficeId: number;

  @ManyToOne(() => BoxOffice, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'box_office_id' })
  boxOffice?: BoxOffice;

  @Column({ type: 'varchar', length: 300 })
  name: string;

  /** Unix seconds. */
  @Column({ name: 'start_at', type: 'bigint', transformer: bigintAsNumber })
  startAt: number;

  /** Unix seconds. */
  @Column({ name: 'end_at', type: 'bigint', transformer: bigintAsNumber })
  endAt: number;

  /** IANA zone name, e.g. `Europe/London`. */
  @Column({ type: 'varchar', length: 64 })
  timezone: string;
}
