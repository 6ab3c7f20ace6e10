import { NullableText } from '../openapi/api-properties';

/** Where an event or a series takes place; name and postal code null when online. */
export class VenueDto {
  @NullableText(300, {
    description: 'Venue name',
    example: 'Royal Albert Hall',
  })
  name: string | null;

  @NullableText(32, { description: 'Venue postal code', example: 'SW7 2AP' })
  postal_code: string | null;
}
