import {
  ArgumentMetadata,
  Injectable,
  ValidationError,
  ValidationPipe,
} from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { ApiError, type FieldError } from '../errors/api-error';
import { quoteIfSafe } from '../errors/safe-text';

/**
 * A field's messages, each once. A "given once" or a "required" complaint is the only one: the
 * others would only repeat that the value is not what it should be.
 */
function messagesOf(error: ValidationError): string[] {
  const constraints = error.constraints ?? {};
  const only = constraints.notRepeated ?? constraints.isDefined;
  if (only) return [only];
  const own = [...new Set(Object.values(constraints))];
  return own.length > 0
    ? own
    : (error.children ?? []).flatMap((child) => messagesOf(child));
}

function firstMessage(errors: ValidationError[]): string {
  for (const error of errors) {
    const [message] = messagesOf(error);
    if (message) return message;
  }
  return 'The request is invalid';
}

/** One entry per field of a request body (docs/API.md, Errors: "Body"). */
function fieldErrors(errors: ValidationError[]): FieldError[] {
  return errors.map((error) => ({
    field: quoteIfSafe(error.property, '(a name that is not valid)'),
    messages: messagesOf(error),
  }));
}

/** What class-validator found wrong, before it is told as a query's or a body's 400. */
class Invalid {
  constructor(readonly errors: ValidationError[]) {}
}

const unknownField = (key: string): ValidationError => ({
  property: key,
  constraints: {
    whitelistValidation: `${quoteIfSafe(key, 'this field')} is not a field of this request`,
  },
});

/**
 * The global ValidationPipe (whitelist, forbidNonWhitelisted, transform) with the API's 400 body
 * (docs/API.md, Errors): for a query, the first problem; for a request body, the first problem and
 * `errors`, one entry per bad field. Query objects and bodies are also checked key by key first:
 * the whitelist misses keys such as `__proto__` or `constructor`, and an unknown parameter or
 * field must never be silently ignored (docs/DESIGN.md, Decisions: Unknown parameters are refused).
 * A text with a NUL character is refused too, whatever the parameter or field: PostgreSQL's text
 * cannot hold one (it would fail as a 500), and SQLite's would differ from it.
 */
@Injectable()
export class StrictValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      exceptionFactory: (errors) => new Invalid(errors),
    });
  }

  /** Property names each DTO declares, read once from class-validator's metadata. */
  private readonly knownKeys = new WeakMap<object, ReadonlySet<string>>();

  override async transform(value: unknown, metadata: ArgumentMetadata) {
    const { type, metatype } = metadata;
    const checked = (type === 'query' || type === 'body') && metatype;
    if (type === 'body' && checked && !isPlainObject(value)) {
      throw ApiError.validation('The request body must be a JSON object');
    }
    if (checked && value && typeof value === 'object') {
      const known = this.knownKeysOf(metatype);
      const unknown = Object.keys(value).filter((key) => !known.has(key));
      if (unknown.length > 0 && type === 'query') {
        throw ApiError.validation(
          `Unknown query parameter: ${quoteIfSafe(unknown[0], '(a name that is not valid)')}`,
        );
      }
      if (unknown.length > 0) {
        throw ApiError.invalidBody(fieldErrors(unknown.map(unknownField)));
      }
      const withNul = Object.keys(value).filter((key) =>
        hasNul((value as Record<string, unknown>)[key]),
      );
      if (withNul.length > 0 && type === 'query') {
        // As a query string spells it, and as the text filters' own check words it.
        throw ApiError.validation(`${nulMessage(withNul[0])} (%00)`);
      }
      if (withNul.length > 0) {
        throw ApiError.invalidBody(
          withNul.map((key) => ({ field: key, messages: [nulMessage(key)] })),
        );
      }
      // A DTO without parameters (NoQueryDto): nothing left to validate or transform.
      if (known.size === 0) return {};
    }
    try {
      return await super.transform(value, metadata);
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      throw type === 'body'
        ? ApiError.invalidBody(fieldErrors(error.errors))
        : ApiError.validation(firstMessage(error.errors));
    }
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

/** A string, or a repeated parameter's strings, with a NUL character. */
function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  return Array.isArray(value) && value.some(hasNul);
}

const nulMessage = (key: string) => `${key} must not contain a NUL character`;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !Buffer.isBuffer(value)
  );
}
