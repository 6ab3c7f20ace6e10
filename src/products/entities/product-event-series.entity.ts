import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { EventSeries } from '../../event-series/entities/event-series.entity';
import { Product } from './product.entity';

/** A series a product is sold with; a product with none is sold with every series. */
@Entity({ name: 'product_event_series' })
@Index('IDX_product_event_series_product', ['productId', 'eventSeriesId'], {
  unique: true,
})
@Index('IDX_product_event_series_event_series', ['eventSeriesId', 'productId'])
export class ProductEventSeries {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'product_id', type: 'integer' })
  productId: number;

  @ManyToOne(() => Product, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'product_id' })
  product?: Product;

  @Column({ name: 'event_series_id', type: 'integer' })
  eventSeriesId: number;

  @ManyToOne(() => EventSeries, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_series_id' })
  eventSeries?: EventSeries;
}
