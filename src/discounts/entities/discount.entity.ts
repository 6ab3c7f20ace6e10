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

export const DISCOUNT_TYPES = ['fixed', 'percentage'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

/**
 * A discount code (docs/API.md, "Discount"): applied in an order, a `gift_card` line item names
 * it, its `total` the negative amount it took off.
 */
@Entity({ name: 'discounts' })
@Index('IDX_discounts_list', ['boxOfficeId', 'createdAt', 'id'])
@Index('IDX_discounts_code', ['boxOfficeId', 'code'], { unique: true })
export class Discount {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'box_office_id', type: 'integer' })
  boxOfficeId: number;

  @ManyToOne(() => BoxOffice, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'box_office_id' })
  boxOffice?: BoxOffice;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  /** What a buyer types. */
  @Column({ type: 'varchar', length: 64 })
  code: string;

  @Column({ type: 'varchar', length: 16 })
  type: DiscountType;

  /** Minor units off each ticket's price (`fixed`), or a whole percentage 1–100. */
  @Column({ name: 'face_value_amount', type: 'integer' })
  faceValueAmount: number;

  /** Minor units off each ticket's booking fee (`fixed`), or a whole percentage 1–100. */
  @Column({ name: 'booking_fee_amount', type: 'integer' })
  bookingFeeAmount: number;

  /** `completed` orders it was applied in: kept by triggers (migration ConnectorCounters). */
  @Column({ name: 'times_used', type: 'integer', default: 0 })
  timesUsed: number;

  /** Unix seconds. */
  @Column({ name: 'created_at', type: 'bigint', transformer: bigintAsNumber })
  createdAt: number;
}
