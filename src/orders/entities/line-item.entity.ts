import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import type { Discount } from '../../discounts/entities/discount.entity';
import type { TicketType } from '../../events/entities/ticket-type.entity';
import type { Product } from '../../products/entities/product.entity';
import type { VoucherCode } from '../../vouchers/entities/voucher-code.entity';
import type { Order } from './order.entity';

export const LINE_ITEM_TYPES = [
  'ticket',
  'transaction_charge',
  'void',
  'tax',
  'gift_card',
  'donation',
  'product',
] as const;
export type LineItemType = (typeof LINE_ITEM_TYPES)[number];

/**
 * One basket row of an order. Money is integer minor units of the order's currency. What it sold
 * or spent is named in the column its type reads (served as `item_id`, docs/API.md "LineItem"):
 * `ticket` and `void` lines a ticket type, `product` lines a product, `gift_card` lines a voucher
 * code or else a discount. The indexes are partial: most lines name none of the last three.
 */
@Entity({ name: 'line_items' })
@Index('IDX_line_items_order', ['orderId', 'id'])
@Index('IDX_line_items_ticket_type', ['ticketTypeId'], {
  where: 'ticket_type_id IS NOT NULL',
})
@Index('IDX_line_items_product', ['productId'], {
  where: 'product_id IS NOT NULL',
})
@Index('IDX_line_items_voucher_code', ['voucherCodeId'], {
  where: 'voucher_code_id IS NOT NULL',
})
// A discount applies to an order once.
@Index('IDX_line_items_discount', ['discountId', 'orderId'], {
  unique: true,
  where: 'discount_id IS NOT NULL',
})
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

  @Column({ name: 'ticket_type_id', type: Number, nullable: true })
  ticketTypeId: number | null;

  @ManyToOne('TicketType', { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'ticket_type_id' })
  ticketType?: TicketType;

  @Column({ name: 'product_id', type: Number, nullable: true })
  productId: number | null;

  @ManyToOne('Product', { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'product_id' })
  product?: Product;

  @Column({ name: 'voucher_code_id', type: Number, nullable: true })
  voucherCodeId: number | null;

  @ManyToOne('VoucherCode', { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'voucher_code_id' })
  voucherCode?: VoucherCode;

  @Column({ name: 'discount_id', type: Number, nullable: true })
  discountId: number | null;

  @ManyToOne('Discount', { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'discount_id' })
  discount?: Discount;
}
