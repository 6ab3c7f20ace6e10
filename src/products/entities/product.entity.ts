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

export const PRODUCT_STATUSES = [
  'available',
  'unavailable',
  'sold_out',
] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

export const FULFILMENT_TYPES = [
  'collect_at_venue',
  'delivery',
  'digital',
] as const;
export type FulfilmentType = (typeof FULFILMENT_TYPES)[number];

/**
 * An add-on a box office sells beside tickets (a programme, a T-shirt, parking), sold in orders
 * as `product` line items (docs/API.md, "Product"). Money is integer minor units of `currency`.
 */
@Entity({ name: 'products' })
@Index('IDX_products_list', ['boxOfficeId', 'createdAt', 'id'])
@Index('IDX_products_status', ['boxOfficeId', 'status', 'createdAt', 'id'])
export class Product {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'box_office_id', type: 'integer' })
  boxOfficeId: number;

  @ManyToOne(() => BoxOffice, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'box_office_id' })
  boxOffice?: BoxOffice;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'integer' })
  price: number;

  /** Lower-case currency code of its price (docs/API.md, Money). */
  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 16 })
  status: ProductStatus;

  @Column({ name: 'fulfilment_type', type: 'varchar', length: 24 })
  fulfilmentType: FulfilmentType;

  /**
   * Units in `completed` orders: kept by triggers on line items and orders (migration
   * ConnectorCounters). Never write it.
   */
  @Column({ name: 'quantity_sold', type: 'integer', default: 0 })
  quantitySold: number;

  /** Unix seconds. */
  @Column({ name: 'created_at', type: 'bigint', transformer: bigintAsNumber })
  createdAt: number;

  /** Unix seconds; moved by a trigger when what the product shows changes. */
  @Column({ name: 'updated_at', type: 'bigint', transformer: bigintAsNumber })
  updatedAt: number;
}
