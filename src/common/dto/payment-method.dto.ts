import { NullableId, NullableText, OneOf } from '../openapi/api-properties';
import { PAYMENT_METHOD_TYPES } from '../payment-methods';
import { RESOURCE } from '../resources/resource-identities';

/** The most payment methods an event (or a series template) accepts. */
export const MAX_PAYMENT_METHODS = 20;

/** A payment method, as an order names the one it was paid with and an event those it accepts. */
export class PaymentMethodDto {
  @NullableText(255, {
    description: 'Identifier of an externally held payment method',
    example: 'ch_3PabcXYZ',
  })
  external_id: string | null;

  @NullableId(RESOURCE.paymentMethod.prefix, {
    description: 'Identifier of an internal payment method',
  })
  id: string | null;

  @OneOf(PAYMENT_METHOD_TYPES)
  type: string;

  @NullableText(200, { description: 'Name of the payment method' })
  name: string | null;

  @NullableText(2000, { description: 'How to pay (offline payments)' })
  instructions: string | null;
}
