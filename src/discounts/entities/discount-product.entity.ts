import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Product } from '../../products/entities/product.entity';
import { Discount } from './discount.entity';

/** A product a discount also takes off. */
@Entity({ name: 'discount_products' })
@Index('IDX_discount_products_discount', ['discountId', 'productId'], {
  unique: true,
})
@Index('IDX_discount_products_product', ['productId', 'discountId'])
export class DiscountProduct {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'discount_id', type: 'integer' })
  discountId: number;

  @ManyToOne(() => Discount, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'discount_id' })
  discount?: Discount;

  @Column({ name: 'product_id', type: 'integer' })
  productId: number;

  @ManyToOne(() => Product, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'product_id' })
  product?: Product;
}
