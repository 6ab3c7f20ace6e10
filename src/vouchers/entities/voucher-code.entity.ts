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
import { Voucher } from './voucher.entity';

/**
 * One code of a voucher, what a buyer types (docs/API.md, "VoucherCode"). It carries its
 * voucher's box office, so that the nested list reads one index.
 */
@Entity({ name: 'voucher_codes' })
@Index('IDX_voucher_codes_list', [
  'boxOfficeId',
  'voucherId',
  'createdAt',
  'id',
])
@Index('IDX_voucher_codes_code', ['boxOfficeId', 'code'], { unique: true })
export class VoucherCode {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'box_office_id', type: 'integer' })
  boxOfficeId: number;

  @ManyToOne(() => BoxOffice, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'box_office_id' })
  boxOffice?: BoxOffice;

  @Index('IDX_voucher_codes_voucher')
  @Column({ name: 'voucher_id', type: 'integer' })
  voucherId: number;

  @ManyToOne(() => Voucher, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'voucher_id' })
  voucher?: Voucher;

  @Column({ type: 'varchar', length: 64 })
  code: string;

  /**
   * Σ −total of the `gift_card` lines naming it in `completed` orders: kept by triggers
   * (migration ConnectorCounters). Never write it.
   */
  @Column({ type: 'integer', default: 0 })
  spent: number;

  /** Unix seconds. */
  @Column({ name: 'created_at', type: 'bigint', transformer: bigintAsNumber })
  createdAt: number;
}
