import { PageDto } from '../../common/pagination/page.dto';
import { IssuedTicketDto } from '../../orders/dto/order.dto';

export { IssuedTicketDto };

export class IssuedTicketListDto extends PageDto(IssuedTicketDto, {
  path: '/v1/issued_tickets',
  prefix: 'it_',
  keyed: true,
}) {}
