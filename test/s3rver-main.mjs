// s3rver (npm, devDependency) as a child process, for the S3 blob store's tests: S3 over HTTP on a
// free port, objects in the folder given as argv[2], the bucket argv[3] made at start. It prints
// `{"port": n}` once listening and runs until killed, or until its parent is gone (its stdin closes). Its own process, so that the tests'
// measure of their memory counts only the platform's.
import S3rver from 's3rver';

const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  directory,
  silent: true,
  configureBuckets: [{ name: bucket }],
});
const { port } = await server.run();
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
