import {
  ArgumentMetadata,
  Injectable,
  ValidationError,
  ValidationPipe,
} from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { ApiError } from '../errors/api-error';
import { quoteIfSafe } from '../errors/safe-text';

function firstMessage(errors: ValidationError[]): string {
  for (const error of errors) {
    const constraints = Object.values(error.constraints ?? {});
    // Constraint order: a "given once" complaint is the most useful when present.
    const repeated = error.constraints?.notRepeated;
    if (repeated) return repeated;
    if (constraints.length > 0) return constraints[0];
    const nested = firstMessage(error.children ?? []);
    if (nested) return nested;
  }
  return 'The request is invalid';
}

/**
 * The global ValidationPipe (whitelist, forbidNonWhitelisted, transform) with the API's 400 body
 * (docs/API.md, Errors). Query objects are also checked key by key first: the whitelist misses
 * keys such as `__proto__` or `constructor`, and an unknown parameter must never be silently
 * ignored (docs/API.md, Decisions: Unknown parameters are refused).
 */
@Injectable()
export class StrictValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      exceptionFactory: (errors) => ApiError.validation(firstMessage(errors)),
    });
  }

  /** Property names each query DTO declares, read once from class-validator's metadata. */
  private readonly knownKeys = new WeakMap<object, ReadonlySet<string>>();

  override async transform(value: unknown, metadata: ArgumentMetadata) {
    if (
      metadata.type === 'query' &&
      metadata.metatype &&
      value &&
      typeof value === 'object'
    ) {
      const known = this.knownKeysOf(metadata.metatype);
      for (const key of Object.keys(value)) {
        if (!known.has(key)) {
          throw ApiError.validation(
            `Unknown query parameter: ${quoteIfSafe(key, '(a name that is not valid)')}`,
          );
        }
      }
      // A DTO without parameters (NoQueryDto): nothing left to validate or transform.
      if (known.size === 0) return {};
    }
    return super.transform(value, metadata);
  }

  private knownKeysOf(
    metatype: new (...args: never[]) => unknown,
  ): ReadonlySet<string> {
    let known = this.knownKeys.get(metatype);
    if (!known) {
      known = new Set(
        getMetadataStorage()
          .getTargetValidationMetadatas(metatype, '', true, false)
          .map((m) => m.propertyName),
      );
      this.knownKeys.set(metatype, known);
    }
    return known;
  }
}
