import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'isPublic';

/** Answers without an API key (a key that is sent must still be valid). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
