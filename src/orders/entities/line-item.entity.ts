import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import type { Order } from './order.entity';

export const LINE_ITEM_TYPES = [
  'ticket',
  'transaction_charge',
  'void',
  'tax',
  'gift_card',
  'donation',
] as const;
export type LineItemType = (typeof LINE_ITEM_TYPES)[number];

/** One basket row of an order. Money is integer minor units of the order's currency. */
@Entity({ name: 'line_items' })
@Index('IDX_line_items_order', ['orderId', 'id'])
export class LineItem {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'order_id', type: 'integer' })
  orderId: number;

  @ManyToOne('Order', 'lineItems', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'order_id' })
  order?: Order;

  @Column({ type: 'varchar', length: 24 })
  type: LineItemType;

  @Column({ type: 'varchar', length: 500 })
  description: string;

  @Column({ type: 'integer' })
  quantity: number;

  /** Amount without tax. */
  @Column({ type: 'integer' })
  value: number;

  @Column({ name: 'booking_fee', type: 'integer', default: 0 })
  bookingFee: number;

  /** Amount including tax. */
  @Column({ type: 'integer' })
  total: number;
}
