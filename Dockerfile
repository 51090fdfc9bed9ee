# A small image for CI systems that run containers: agentverify on a distroless base, as a
# non-root user. The Go dimensions type-check with the Go toolchain (go list), so the image
# carries it; nothing else (no shell, no package manager).
#   docker build -t agentverify .
#   docker run --rm -v "$PWD:/src" -w /src agentverify diff --base origin/main
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# cgo stays on: the Python frontend's tree-sitter grammar is C.
RUN go build -trimpath -ldflags="-s -w" -o /out/agentverify ./cmd/agentverify

FROM gcr.io/distroless/base-debian12:nonroot
COPY --from=build /usr/local/go /usr/local/go
COPY --from=build /out/agentverify /usr/local/bin/agentverify
ENV PATH=/usr/local/go/bin:/usr/local/bin:/usr/bin:/bin \
    GOTOOLCHAIN=local GOFLAGS=-buildvcs=false GOCACHE=/tmp/go-cache GOPATH=/tmp/go
USER nonroot
ENTRYPOINT ["agentverify"]
