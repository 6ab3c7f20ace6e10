import 'reflect-metadata';
import { ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypicalModule } from './typical.module';

/** `PORT=3001 DATABASE_URL=sqlite:… node dist/bench/typical/main.js` */
export async function createTypicalApp() {
  const app = await NestFactory.create(TypicalModule, {
    logger: ['error', 'warn'],
  });
  app.useGlobalPipes(
    new ValidationPipe({
      transform: true,
      whitelist: true,
      forbidNonWhitelisted: true,
    }),
  );
  app.enableShutdownHooks();
  return app;
}

if (require.main === module) {
  void createTypicalApp().then((app) =>
    app.listen(Number(process.env.PORT ?? 3001)),
  );
}
