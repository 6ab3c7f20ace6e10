import { IssuedTicketDto } from '../../common/dto/issued-ticket.dto';
import { PageDto } from '../../common/pagination/page.dto';
import { RESOURCE, pathOf } from '../../common/resources/resource-identities';

export class IssuedTicketListDto extends PageDto(IssuedTicketDto, {
  path: pathOf(RESOURCE.issuedTicket),
  prefix: RESOURCE.issuedTicket.prefix,
  keyed: true,
}) {}
