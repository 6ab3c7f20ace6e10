import {
  Check,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { bigintAsNumber } from '../../database/column-transformers';
import type { ApiKeyScope } from '../api-key-scopes';
import { BoxOffice } from './box-office.entity';

/** An API key: only its SHA-256 hash is stored; the clear key is shown once, at creation. */
@Entity({ name: 'api_keys' })
@Check('CHK_api_keys_scope', "scope IN ('read', 'check_in', 'write')")
export class ApiKey {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Index('IDX_api_keys_box_office')
  @Column({ name: 'box_office_id', type: 'integer' })
  boxOfficeId: number;

  @ManyToOne(() => BoxOffice, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'box_office_id' })
  boxOffice?: BoxOffice;

  @Column({ type: String, length: 200, nullable: true })
  name: string | null;

  /** Hex SHA-256 of the whole key. */
  @Index('IDX_api_keys_key_hash', { unique: true })
  @Column({ name: 'key_hash', type: 'varchar', length: 64 })
  keyHash: string;

  /** The first characters of the key, enough for a person to tell keys apart in a list. */
  @Column({ name: 'key_prefix', type: 'varchar', length: 16 })
  keyPrefix: string;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintAsNumber })
  createdAt: number;

  /**
   * What the key may do (auth/api-key-scopes.ts): `read`, `check_in` (also record scans) or
   * `write` (also every other write: tickets, webhook endpoints).
   */
  @Column({ type: 'varchar', length: 16, default: 'read' })
  scope: ApiKeyScope;

  @Column({
    name: 'revoked_at',
    type: 'bigint',
    nullable: true,
    transformer: bigintAsNumber,
  })
  revokedAt: number | null;
}
