import { IssuedTicketDto } from '../../common/dto/issued-ticket.dto';
import { PageDto } from '../../common/pagination/page.dto';

export class IssuedTicketListDto extends PageDto(IssuedTicketDto, {
  path: '/v1/issued_tickets',
  prefix: 'it_',
  keyed: true,
}) {}
