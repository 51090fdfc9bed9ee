module github.com/agentverify/agentverify

go 1.26.8
