import { Module } from '@nestjs/common';
import { WaitlistSignupsController } from './waitlist-signups.controller';
import { WaitlistSignupsService } from './waitlist-signups.service';

@Module({
  controllers: [WaitlistSignupsController],
  providers: [WaitlistSignupsService],
})
export class WaitlistSignupsModule {}
