import { Injectable } from '@nestjs/common';
import { version } from '../../package.json';

@Injectable()
export class HealthService {
  /** The release version, from package.json. */
  ping(): { version: string } {
    return { version };
  }
}
