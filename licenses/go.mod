module github.com/gamedata-go/gamedata/licenses

go 1.26.0

toolchain go1.26.11

require (
	github.com/google/licensecheck v0.3.1
	github.com/stretchr/testify v1.12.1
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
