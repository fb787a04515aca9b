-- Issue 18.9: delivery attempts stored the socket's own error text, which quoted host names and the internal
-- addresses they resolve to. New attempts store one of a fixed set of reasons (src/webhooks/sender.ts,
-- DELIVERY_ERRORS); the stored texts become the reason they stood for.
update webhook_attempts set error = case
    when error like 'timed out after%' then 'timeout'
    when error like '%which webhooks may not reach%' then 'refused_address'
    when error like '%ENOTFOUND%' or error like '%EAI_AGAIN%' or error like '%getaddrinfo%' then 'refused_address'
    when error like '%ECONNREFUSED%' then 'connection_refused'
    when error like '%ECONNRESET%' or error like '%EPIPE%' or error like 'socket hang up%' then 'connection_reset'
    when error like '%EHOSTUNREACH%' or error like '%ENETUNREACH%' then 'network_unreachable'
    when error like '%ETIMEDOUT%' then 'timeout'
    when error like '%certificate%' or error like '%SSL%' or error like '%TLS%' or error like '%self-signed%' then 'tls'
    when error like '%Parse Error%' then 'protocol'
    else 'other'
  end
where error is not null
  and error not in ('timeout', 'refused_address', 'connection_refused', 'connection_reset', 'network_unreachable',
                    'tls', 'protocol', 'http_status', 'other');
update webhook_attempts set error = 'http_status'
where error is null and status_code is not null and (status_code < 200 or status_code > 299);
