import { config } from '../../package.json';

/** The Node flags `npm run start:prod` gives the service: package.json's `config.serverNodeFlags`. */
export const SERVICE_NODE_FLAGS = config.serverNodeFlags.split(' ');
