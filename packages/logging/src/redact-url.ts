// A connection URL as a log line may show it: the password masked, everything else (host, port, user) kept so the
// line still says where the process is trying to connect.
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}
