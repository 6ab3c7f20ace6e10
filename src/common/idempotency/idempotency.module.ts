import { Module } from '@nestjs/common';
import { IdempotencyRetention } from './idempotency-retention';

/** Keeps the table of Idempotency-Key answers to its 24 hours (idempotency-keys.ts). */
@Module({ providers: [IdempotencyRetention] })
export class IdempotencyModule {}
