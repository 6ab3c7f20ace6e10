import { Module } from '@nestjs/common';
import { VoucherCodesController } from './voucher-codes.controller';
import { VouchersController } from './vouchers.controller';
import { VouchersService } from './vouchers.service';

@Module({
  controllers: [VouchersController, VoucherCodesController],
  providers: [VouchersService],
})
export class VouchersModule {}
