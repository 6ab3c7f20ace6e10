/** The Node flags `npm run start:prod` gives the service (see package.json and the README). */
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=16'];
