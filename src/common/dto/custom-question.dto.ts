import { NullableText, Text } from '../openapi/api-properties';

/** Custom questions and answers are stored as JSON text: these bounds are documented, not columns. */
export const MAX_CUSTOM_QUESTIONS = 50;

/** A question the buyer or an attendee answered at checkout (orders and issued tickets). */
export class CustomQuestionDto {
  @Text(500, { example: 'Dietary requirements' })
  question: string;

  @NullableText(2000, {
    description: 'The answer; null when not answered',
    example: 'Vegetarian',
  })
  answer: string | null;
}
