-- wrk script: cycles through request lines from a file (paths for GET, bodies for POST), so
-- every request can differ (random slugs, queries, one-time assertions).
-- args: <lines file> <GET|POST> [authorization] [content-type] [post path] [accept] ["Name: value"...]
local lines, method, headers, post_path = {}, "GET", {}, "/"
local i = 0

function init(args)
  for line in io.lines(args[1]) do lines[#lines + 1] = line end
  method = args[2] or "GET"
  if args[3] and args[3] ~= "" then headers["Authorization"] = args[3] end
  if args[4] and args[4] ~= "" then headers["Content-Type"] = args[4] end
  post_path = args[5] or "/"
  if args[6] and args[6] ~= "" then headers["Accept"] = args[6] end
  for j = 7, #args do
    local name, value = args[j]:match("^([^:]+):%s*(.*)$")
    if name then headers[name] = value end
  end
end

function request()
  i = i % #lines + 1
  if method == "GET" then
    return wrk.format("GET", lines[i], headers)
  end
  return wrk.format("POST", post_path, headers, lines[i])
end
