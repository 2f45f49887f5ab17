// Command smoke is run by .ci/clients.sh: it uses the Go client oapi-codegen generated from the
// served /v3/openapi.json (package frontdesk, written next to this file) against the same
// running server, the way an integrator's program would, and fails on any surprise.
package main

import (
	"context"
	"fmt"
	"net/http"
	"os"

	"clientcheck/frontdesk"
)

func main() {
	if err := run(context.Background(), os.Getenv("FRONTDESK_URL"), os.Getenv("FRONTDESK_KEY")); err != nil {
		fmt.Fprintln(os.Stderr, "smoke:", err)
		os.Exit(1)
	}
	fmt.Println("smoke: the generated Go client works against the server")
}

func run(ctx context.Context, base, key string) error {
	c, err := frontdesk.NewClientWithResponses(base, frontdesk.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
		r.Header.Set("Authorization", "Bearer "+key)
		return nil
	}))
	if err != nil {
		return err
	}
	services, err := c.ListServicesWithResponse(ctx, &frontdesk.ListServicesParams{})
	if err != nil {
		return fmt.Errorf("list services: %w", err)
	}
	if services.JSON200 == nil || len(services.JSON200.Data) == 0 {
		return fmt.Errorf("list services: status %d, body %s", services.StatusCode(), services.Body)
	}
	search, active := "argan", true
	products, err := c.ListProductsWithResponse(ctx, &frontdesk.ListProductsParams{Search: &search, Active: &active})
	if err != nil {
		return fmt.Errorf("list products: %w", err)
	}
	if products.JSON200 == nil || len(products.JSON200.Data) != 1 {
		return fmt.Errorf("list products: status %d, body %s", products.StatusCode(), products.Body)
	}
	p := products.JSON200.Data[0]
	one, err := c.GetProductWithResponse(ctx, frontdesk.ProductId(p.Id))
	if err != nil {
		return fmt.Errorf("get product: %w", err)
	}
	if one.JSON200 == nil || one.JSON200.Name != p.Name || one.JSON200.Stock == nil {
		return fmt.Errorf("get product %d: status %d, body %s", p.Id, one.StatusCode(), one.Body)
	}
	phone := "+56955501234"
	created, err := c.CreateClientWithResponse(ctx, &frontdesk.CreateClientParams{}, frontdesk.CreateClientJSONRequestBody{
		FirstName: "Smoke", Phone: &phone,
	})
	if err != nil {
		return fmt.Errorf("create client: %w", err)
	}
	if created.JSON201 == nil || created.JSON201.FirstName != "Smoke" {
		return fmt.Errorf("create client: status %d, body %s", created.StatusCode(), created.Body)
	}
	missing, err := c.GetProductWithResponse(ctx, 999999)
	if err != nil {
		return fmt.Errorf("get missing product: %w", err)
	}
	if missing.JSON404 == nil || missing.JSON404.Error != "not_found" {
		return fmt.Errorf("get missing product: status %d, body %s", missing.StatusCode(), missing.Body)
	}
	return nil
}
