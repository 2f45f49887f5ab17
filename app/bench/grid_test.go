package bench

import (
	"slices"
	"testing"
	"time"
)

func testGrid(t *testing.T, step, providers, days int) grid {
	t.Helper()
	zone, err := time.LoadLocation("America/Bogota")
	if err != nil {
		t.Fatal(err)
	}
	g := grid{zone: zone, firstDay: time.Date(2026, 11, 23, 0, 0, 0, 0, zone), days: days, step: step}
	for i := range providers {
		g.providers = append(g.providers, int64(100+i))
	}
	return g
}

func sortBlocks(b []block) {
	slices.SortFunc(b, func(x, y block) int {
		if x.provider != y.provider {
			return int(x.provider - y.provider)
		}
		return int(x.start - y.start)
	})
}

func TestGridFreeNeverOverlaps(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		step, providers, days int
	}{
		{"15-minute steps", 15, 7, 3},
		{"5-minute steps", 5, 3, 2},
		{"hourly steps", 60, 5, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := testGrid(t, tc.step, tc.providers, tc.days)
			capacity := int64(tc.providers * tc.days * 1440 / tc.step)
			var blocks []block
			for k := range capacity {
				p, start, err := g.free(k)
				if err != nil {
					t.Fatalf("free(%d): %v; want a slot below the capacity of %d", k, err, capacity)
				}
				if m := start.Hour()*60 + start.Minute(); m%tc.step != 0 {
					t.Fatalf("free(%d) starts at %s, want a multiple of %d minutes", k, start.Format("15:04"), tc.step)
				}
				blocks = append(blocks, block{p, start.UnixMilli(), start.Add(time.Duration(tc.step) * time.Minute).UnixMilli()})
			}
			sortBlocks(blocks)
			if n := countOverlaps(blocks); n != 0 {
				t.Fatalf("got %d overlapping free slots, want 0", n)
			}
			if _, _, err := g.free(capacity); err == nil {
				t.Fatalf("free(%d) past the capacity: got a slot, want an error", capacity)
			}
		})
	}
}

func TestGridRaceGroupsOverlapWithinAndNeverAcross(t *testing.T) {
	g := testGrid(t, 15, 4, 3)
	const racers = 8
	groups := map[int64][]block{}
	for k := range int64(racers * 4 * 3 * 16) { // every group of the window
		p, start, group, err := g.race(k, racers)
		if err != nil {
			t.Fatalf("race(%d): %v", k, err)
		}
		groups[group] = append(groups[group], block{p, start.UnixMilli(), start.Add(g.raceDuration()).UnixMilli()})
	}
	var firsts []block
	for group, members := range groups {
		if len(members) != racers {
			t.Fatalf("group %d has %d racers, want %d", group, len(members), racers)
		}
		for i, a := range members {
			for _, b := range members[i+1:] {
				if a.provider != b.provider || !(a.start < b.end && b.start < a.end) {
					t.Fatalf("group %d: %+v and %+v do not overlap, want every racer of a group to collide", group, a, b)
				}
			}
		}
		// The widest possible winner of each group, to check groups never collide.
		widest := members[0]
		for _, m := range members {
			widest.start, widest.end = min(widest.start, m.start), max(widest.end, m.end)
		}
		firsts = append(firsts, widest)
	}
	sortBlocks(firsts)
	if n := countOverlaps(firsts); n != 0 {
		t.Fatalf("got %d groups that overlap another group, want 0", n)
	}
	if _, _, _, err := g.race(racers*4*3*16, racers); err == nil {
		t.Fatalf("race past the window: got a slot, want an error")
	}
}

func TestCountOverlaps(t *testing.T) {
	for _, tc := range []struct {
		name   string
		blocks []block
		want   int
	}{
		{"none", nil, 0},
		{"touching is not overlapping", []block{{1, 0, 10}, {1, 10, 20}}, 0},
		{"same provider overlapping", []block{{1, 0, 10}, {1, 5, 15}}, 1},
		{"other providers never collide", []block{{1, 0, 10}, {2, 5, 15}}, 0},
		{"a long block covers later ones", []block{{1, 0, 100}, {1, 10, 20}, {1, 30, 40}}, 2},
		{"reach resets per provider", []block{{1, 0, 100}, {2, 10, 20}, {2, 20, 30}}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := countOverlaps(tc.blocks); got != tc.want {
				t.Fatalf("got %d overlaps, want %d", got, tc.want)
			}
		})
	}
}
