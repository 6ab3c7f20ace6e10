import type { Type } from '@nestjs/common';
import {
  DocumentBuilder,
  type OpenAPIObject,
  SwaggerModule,
} from '@nestjs/swagger';
import { Test } from '@nestjs/testing';
import { CHANGE_FIELDS } from './changes/change.fields';
import { ChangeDto } from './changes/dto/change.dto';
import { CHECK_IN_FIELDS } from './check-ins/check-in.fields';
import { CheckInDto } from './check-ins/dto/check-in.dto';
import {
  Id,
  Integer,
  Literal,
  NullableText,
  UNIX_SECONDS,
} from './common/openapi/api-properties';
import {
  type Fields,
  json,
  type JsonValue,
} from './common/resources/field-table';
import { EventSeriesDto } from './event-series/dto/event-series.dto';
import { EVENT_SERIES_FIELDS } from './event-series/event-series.fields';
import { EventDto } from './events/dto/event.dto';
import { EVENT_FIELDS } from './events/event.fields';
import { IssuedTicketDto } from './common/dto/issued-ticket.dto';
import { ISSUED_TICKET_FIELDS } from './issued-tickets/issued-ticket.fields';
import { OrderDto } from './orders/dto/order.dto';
import { ORDER_FIELDS } from './orders/order.fields';
import { DiscountDto } from './discounts/dto/discount.dto';
import { DISCOUNT_FIELDS } from './discounts/discount.fields';
import { ProductDto } from './products/dto/product.dto';
import { PRODUCT_FIELDS } from './products/product.fields';
import { VoucherCodeDto, VoucherDto } from './vouchers/dto/voucher.dto';
import { VOUCHER_CODE_FIELDS, VOUCHER_FIELDS } from './vouchers/voucher.fields';
import { WaitlistSignupDto } from './waitlist-signups/dto/waitlist-signup.dto';
import { WAITLIST_SIGNUP_FIELDS } from './waitlist-signups/waitlist-signup.fields';
import {
  WebhookDeliveryDto,
  WebhookEndpointDto,
} from './webhooks/dto/webhook-endpoint.dto';
import {
  WEBHOOK_DELIVERY_FIELDS,
  WEBHOOK_ENDPOINT_FIELDS,
} from './webhooks/webhook-endpoint.fields';

/**
 * A resource's JSON is described twice: by its field table, which writes the bytes, and by its
 * response DTO, which writes the OpenAPI schema (hence the typed client and the check of every
 * e2e response). This spec holds the two together field by field, both ways: the same keys in the
 * same order, the same type, nullable in both or in neither, the same id prefix and literal.
 */

type Schemas = NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>;
type Schema = Schemas[string];
type SchemaObject = Exclude<Schema, { $ref: string }>;

/** The component schemas @nestjs/swagger builds for these DTOs, as the service's document does. */
async function schemasOf(models: Type[]): Promise<Schemas> {
  const moduleRef = await Test.createTestingModule({}).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  try {
    const document = SwaggerModule.createDocument(
      app,
      new DocumentBuilder().build(),
      { extraModels: models },
    );
    return document.components?.schemas ?? {};
  } finally {
    await app.close();
  }
}

/** A schema with its `$ref` (alone, or as the one member of `allOf`/`oneOf`) followed. */
function resolve(
  schema: Schema,
  schemas: Schemas,
): SchemaObject & { nullable?: boolean } {
  if ('$ref' in schema) {
    return resolve(
      schemas[schema.$ref.replace('#/components/schemas/', '')],
      schemas,
    );
  }
  const wrapped = schema.allOf ?? schema.oneOf;
  if (wrapped?.length === 1 && !schema.properties) {
    return { ...resolve(wrapped[0], schemas), nullable: schema.nullable };
  }
  return schema;
}

/** What differs between a field table's value and a schema, one line per difference. */
export function differences(
  path: string,
  value: JsonValue,
  schema: Schema,
  schemas: Schemas,
): string[] {
  const s = resolve(schema, schemas);
  const nullable = s.nullable === true;
  const expect = (what: string, wanted: unknown, found: unknown): string[] =>
    JSON.stringify(wanted) === JSON.stringify(found)
      ? []
      : [
          `${path}: ${what} is ${JSON.stringify(found)} in the DTO, ${JSON.stringify(wanted)} in the field table`,
        ];
  switch (value.kind) {
    case 'literal': {
      const literal: unknown = JSON.parse(value.json);
      if (literal === null) return expect('nullable', true, nullable);
      if (Array.isArray(literal)) return expect('type', 'array', s.type);
      return [
        ...expect('type', typeof literal, s.type),
        ...expect('enum', [literal], s.enum),
      ];
    }
    case 'string':
      return [
        ...expect('type', 'string', s.type),
        ...expect('nullable', value.nullable, nullable),
      ];
    case 'integer':
      return [
        ...expect('type', 'integer', s.type),
        ...expect('nullable', value.nullable, nullable),
      ];
    case 'id':
      return [
        ...expect('type', 'string', s.type),
        ...expect('pattern', `^${value.prefix}[1-9][0-9]*$`, s.pattern),
        ...expect('nullable', value.nullable, nullable),
      ];
    case 'flag':
      return [
        ...expect('type', 'string', s.type),
        ...expect('enum', ['true', 'false'], s.enum),
        ...expect('nullable', false, nullable),
      ];
    case 'stored':
      // JSON the service's writers stored: an array or an object, never null.
      return [
        ...expect('type', s.type === 'object' ? 'object' : 'array', s.type),
        ...expect('nullable', false, nullable),
      ];
    case 'object':
      return objectDifferences(path, value.fields, s, schemas);
    case 'array':
      return [
        ...expect('type', 'array', s.type),
        ...expect('nullable', false, nullable),
        ...(s.items
          ? differences(`${path}[]`, value.of, s.items, schemas)
          : [`${path}: the DTO has no items`]),
      ];
    case 'computed':
      // Rendered by a function (a date in a time zone): its JSON is checked by the e2e suite
      // against the schema; here only that the key is in both.
      return [];
  }
}

function objectDifferences(
  path: string,
  fields: Fields,
  schema: SchemaObject,
  schemas: Schemas,
): string[] {
  const properties = schema.properties ?? {};
  const tableKeys = fields.map(([key]) => key);
  const dtoKeys = Object.keys(properties);
  const problems = [
    ...tableKeys
      .filter((key) => !(key in properties))
      .map((key) => `${path}.${key}: in the field table, not in the DTO`),
    ...dtoKeys
      .filter((key) => !tableKeys.includes(key))
      .map((key) => `${path}.${key}: in the DTO, not in the field table`),
  ];
  if (problems.length === 0 && tableKeys.join() !== dtoKeys.join()) {
    problems.push(
      `${path}: keys in another order (field table ${tableKeys.join()}; DTO ${dtoKeys.join()})`,
    );
  }
  for (const [key, value] of fields) {
    if (key in properties) {
      problems.push(
        ...differences(`${path}.${key}`, value, properties[key], schemas),
      );
    }
  }
  return problems;
}

const RESOURCES: [name: string, fields: Fields, dto: Type][] = [
  ['order', ORDER_FIELDS, OrderDto],
  ['issued ticket', ISSUED_TICKET_FIELDS, IssuedTicketDto],
  ['event', EVENT_FIELDS, EventDto],
  ['event series', EVENT_SERIES_FIELDS, EventSeriesDto],
  ['check-in', CHECK_IN_FIELDS, CheckInDto],
  ['change', CHANGE_FIELDS, ChangeDto],
  ['product', PRODUCT_FIELDS, ProductDto],
  ['voucher', VOUCHER_FIELDS, VoucherDto],
  ['voucher code', VOUCHER_CODE_FIELDS, VoucherCodeDto],
  ['discount', DISCOUNT_FIELDS, DiscountDto],
  ['waitlist signup', WAITLIST_SIGNUP_FIELDS, WaitlistSignupDto],
  ['webhook endpoint', WEBHOOK_ENDPOINT_FIELDS, WebhookEndpointDto],
  ['webhook delivery', WEBHOOK_DELIVERY_FIELDS, WebhookDeliveryDto],
];

describe('each resource described once: field table and response DTO agree', () => {
  let schemas: Schemas;
  beforeAll(async () => {
    schemas = await schemasOf(RESOURCES.map(([, , dto]) => dto));
  });

  it.each(RESOURCES)('%s', (_name, fields, dto) => {
    expect(
      differences(dto.name, json.object(fields), schemas[dto.name], schemas),
    ).toEqual([]);
  });
});

// The check itself, on a small resource described wrongly in each way it catches.
class TicketDto {
  @Literal('ticket')
  object: string;

  @Id('tk_')
  id: string;

  @NullableText(100)
  name: string | null;

  @Integer(UNIX_SECONDS)
  created_at: number;
}

const TICKET: Fields = [
  ['object', json.literal('ticket')],
  ['id', json.id('tk_', 't.id')],
  ['name', json.nullableString('t.name')],
  ['created_at', json.integer('t.created_at')],
];

describe('the comparison of a field table with a DTO', () => {
  let schemas: Schemas;
  const compare = (fields: Fields) =>
    differences('TicketDto', json.object(fields), schemas.TicketDto, schemas);
  const replaced = (key: string, value: JsonValue): Fields =>
    TICKET.map(([k, v]) => [k, k === key ? value : v]);

  beforeAll(async () => {
    schemas = await schemasOf([TicketDto]);
  });

  it('finds nothing between a table and its DTO', () => {
    expect(compare(TICKET)).toEqual([]);
  });

  it('finds a field in one and not the other, and another order', () => {
    expect(compare(TICKET.slice(0, 3))).toEqual([
      'TicketDto.created_at: in the DTO, not in the field table',
    ]);
    expect(compare([...TICKET, ['extra', json.integer('t.extra')]])).toEqual([
      'TicketDto.extra: in the field table, not in the DTO',
    ]);
    expect(compare([TICKET[1], TICKET[0], TICKET[2], TICKET[3]])).toEqual([
      'TicketDto: keys in another order (field table id,object,name,created_at; DTO object,id,name,created_at)',
    ]);
  });

  it('finds another type, nullability, prefix or literal', () => {
    expect(
      compare(replaced('created_at', json.string('t.created_at'))),
    ).toEqual([
      'TicketDto.created_at: type is "integer" in the DTO, "string" in the field table',
    ]);
    expect(compare(replaced('name', json.string('t.name')))).toEqual([
      'TicketDto.name: nullable is true in the DTO, false in the field table',
    ]);
    expect(compare(replaced('id', json.nullableId('tk_', 't.id')))).toEqual([
      'TicketDto.id: nullable is false in the DTO, true in the field table',
    ]);
    expect(compare(replaced('id', json.id('tc_', 't.id')))).toEqual([
      'TicketDto.id: pattern is "^tk_[1-9][0-9]*$" in the DTO, "^tc_[1-9][0-9]*$" in the field table',
    ]);
    expect(compare(replaced('object', json.literal('tickets')))).toEqual([
      'TicketDto.object: enum is ["ticket"] in the DTO, ["tickets"] in the field table',
    ]);
  });
});
