import { HTTPS_URL, Text } from '../openapi/api-properties';

/** An event's or a series' images. */
export class ImagesDto {
  @Text(HTTPS_URL.maxLength, {
    ...HTTPS_URL,
    example: 'https://cdn.boxoffice.example/events/1/header.jpg',
  })
  header: string;

  @Text(HTTPS_URL.maxLength, {
    ...HTTPS_URL,
    example: 'https://cdn.boxoffice.example/events/1/thumbnail.jpg',
  })
  thumbnail: string;
}
