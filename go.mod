module github.com/gamedata-go/gamedata

go 1.26

require (
	github.com/google/go-querystring v1.2.0 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/hashicorp/go-retryablehttp v0.7.8 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
	golang.org/x/time v0.16.0 // indirect
)
