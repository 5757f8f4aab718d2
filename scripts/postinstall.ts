/**
 * One line after `npm install`: which Node the project's scripts run on. npm may run on an older
 * Node than the project needs; the `node` devDependency pins the one every npm script uses.
 */
const npmNode = /\bnode\/v(\S+)/.exec(process.env.npm_config_user_agent ?? '')?.[1]
const note = npmNode && npmNode !== process.versions.node ? ` (npm itself runs on Node ${npmNode})` : ''
console.log(`Installed. npm scripts run on Node ${process.versions.node}, pinned by the node package${note}.`)
