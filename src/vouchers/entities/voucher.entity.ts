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

export const VOUCHER_TYPES = ['gift_card', 'credit'] as const;
export type VoucherType = (typeof VOUCHER_TYPES)[number];

/**
 * A batch of codes of one value (docs/API.md, "Voucher"): a buyer spends a code as a `gift_card`
 * line item. Money is integer minor units of `currency`.
 */
@Entity({ name: 'vouchers' })
@Index('IDX_vouchers_list', ['boxOfficeId', 'createdAt', 'id'])
export class Voucher {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'box_office_id', type: 'integer' })
  boxOfficeId: number;

  @ManyToOne(() => BoxOffice, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'box_office_id' })
  boxOffice?: BoxOffice;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'varchar', length: 16 })
  type: VoucherType;

  /** What each code is issued with, minor units. */
  @Column({ type: 'integer' })
  value: number;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  /** Unix seconds: its codes cannot be spent from then on; null when they never expire. */
  @Column({
    name: 'expires_at',
    type: 'bigint',
    nullable: true,
    transformer: bigintAsNumber,
  })
  expiresAt: number | null;

  /** A code may be spent over several orders (else once, whole). */
  @Column({ name: 'partial_redemption', type: 'boolean', default: false })
  partialRedemption: boolean;

  /** Its codes, and those with value left: kept by triggers (migration ConnectorCounters). */
  @Column({ name: 'total_codes', type: 'integer', default: 0 })
  totalCodes: number;

  @Column({ name: 'codes_with_value', type: 'integer', default: 0 })
  codesWithValue: number;

  /** Unix seconds. */
  @Column({ name: 'created_at', type: 'bigint', transformer: bigintAsNumber })
  createdAt: number;
}
