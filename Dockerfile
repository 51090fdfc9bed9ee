# A small image for CI systems that run containers: agentverify and git on a distroless
# base, running as a non-root user. Build: docker build -t agentverify .
# Run:   docker run --rm -v "$PWD:/src" -w /src agentverify diff --base origin/main
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/agentverify ./cmd/agentverify

# The Go dimensions type-check with the Go toolchain, so the runtime image keeps it.
FROM golang:1.26
COPY --from=build /out/agentverify /usr/local/bin/agentverify
RUN useradd --uid 10001 --create-home agentverify && git config --system --add safe.directory '*'
USER 10001
ENTRYPOINT ["agentverify"]
