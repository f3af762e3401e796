// The package ships no types: it takes the exposition text and returns its metric families (prom2json's shape).
declare module 'parse-prometheus-text-format' {
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
