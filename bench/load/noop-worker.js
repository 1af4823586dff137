// The do-nothing Worker of bench/load: answers every request at once, to measure what the runtime alone costs.
export default { fetch: () => new Response(null, { status: 200 }) };
