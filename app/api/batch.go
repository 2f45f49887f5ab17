package api

// A list page is read in a fixed number of queries: the page's rows, then each kind of child
// row for all of them at once (… WHERE parent_id IN (ids)). These two helpers are the glue.

// idsOf returns the id of every row of a page, in order, for the batch queries.
func idsOf[T any](rows []T, id func(T) int64) []int64 {
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = id(r)
	}
	return ids
}

// groupBy indexes child rows by their parent's id, keeping their order.
func groupBy[T any](rows []T, parent func(T) int64) map[int64][]T {
	m := make(map[int64][]T)
	for _, r := range rows {
		m[parent(r)] = append(m[parent(r)], r)
	}
	return m
}
