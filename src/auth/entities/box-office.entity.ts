import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintAsNumber } from '../../database/column-transformers';

/** A tenant: every order, event and API key belongs to exactly one box office. */
@Entity({ name: 'box_offices' })
export class BoxOffice {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintAsNumber })
  createdAt: number;

  /** Its main currency (a code of docs/API.md, Money), lower case. */
  @Column({ type: 'varchar', length: 3, default: 'gbp' })
  currency: string;

  /** Its IANA time zone (`Europe/London`). */
  @Column({ type: 'varchar', length: 64, default: 'Europe/London' })
  timezone: string;
}
