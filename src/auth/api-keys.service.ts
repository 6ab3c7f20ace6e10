import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull } from 'typeorm';
import { ApiKey } from './entities/api-key.entity';
import { BoxOffice } from './entities/box-office.entity';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key-format';
import { type ApiKeyScope, DEFAULT_SCOPE } from './api-key-scopes';

export interface CreatedApiKey {
  key: ApiKey;
  /** The clear key: shown once, never stored. */
  secret: string;
}

/** Key management for the `apikey` CLI (and the seeder's demo keys). */
@Injectable()
export class ApiKeysService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async create(
    boxOfficeId: number,
    name: string | null,
    scope: ApiKeyScope = DEFAULT_SCOPE,
    secret: string = generateApiKey(),
  ): Promise<CreatedApiKey> {
    const boxOffice = await this.dataSource
      .getRepository(BoxOffice)
      .findOneBy({ id: boxOfficeId });
    if (!boxOffice) throw new Error(`There is no box office ${boxOfficeId}`);
    const key = await this.dataSource.getRepository(ApiKey).save({
      boxOfficeId,
      name,
      keyHash: hashApiKey(secret),
      keyPrefix: displayPrefix(secret),
      scope,
      createdAt: Math.floor(Date.now() / 1000),
      revokedAt: null,
    });
    return { key, secret };
  }

  list(boxOfficeId: number): Promise<ApiKey[]> {
    return this.dataSource
      .getRepository(ApiKey)
      .find({ where: { boxOfficeId }, order: { id: 'ASC' } });
  }

  /** Revokes a key; false when there is no such key or it was revoked already. */
  async revoke(keyId: number): Promise<boolean> {
    const result = await this.dataSource
      .getRepository(ApiKey)
      .update(
        { id: keyId, revokedAt: IsNull() },
        { revokedAt: Math.floor(Date.now() / 1000) },
      );
    return (result.affected ?? 0) > 0;
  }
}
