-- A refused request's reason in the request log: the stable code and the detail its answer
-- gave (problem+json code and detail, or RFC 6749 error and error_description). Still no
-- body, header, secret or token.
ALTER TABLE client_requests ADD COLUMN error_code text;
ALTER TABLE client_requests ADD COLUMN error_detail text CHECK (length(error_detail) <= 500);
