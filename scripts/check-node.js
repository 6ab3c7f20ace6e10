// Run before `npm start` and `npm test` (package.json's prestart and pretest): on a Node.js older
// than package.json's engines range, stop at once with one line that names the version and the
// fix, instead of a long build that ends in a crash (better-sqlite3 13 needs Node 22 or later and
// crashes on older ones). Written for any Node.js, however old: no syntax newer than ES5.
'use strict';
var path = require('path');

/** The lowest version `range` (">=MAJOR.MINOR[.PATCH]", as package.json's engines says) allows. */
function lowest(range) {
  var match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(String(range).trim());
  if (!match) throw new Error('engines.node must read >=MAJOR.MINOR: ' + range);
  return [Number(match[1]), Number(match[2] || 0), Number(match[3] || 0)];
}

/** null when `version` (such as "24.9.0") is in `range`; else the one line that says what to do. */
function refusal(version, range) {
  var have = String(version).replace(/^v/, '').split('.').map(Number);
  var need = lowest(range);
  for (var i = 0; i < 3; i++) {
    if ((have[i] || 0) > need[i]) return null;
    if ((have[i] || 0) < need[i]) {
      return (
        'This project needs Node.js ' +
        range +
        ' and this is Node.js ' +
        version +
        ': run `bash scripts/use-node24.sh` (it installs Node 24 LTS from the npm registry), ' +
        'then `rm -rf node_modules && npm install` and try again.'
      );
    }
  }
  return null;
}

module.exports = { refusal: refusal };

if (require.main === module) {
  var engines = require(path.join(__dirname, '..', 'package.json')).engines;
  var line = refusal(process.versions.node, engines.node);
  if (line !== null) {
    console.error(line);
    process.exit(1);
  }
}
