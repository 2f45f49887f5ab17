package input

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// NameError says why a text cannot be a name: the first character that hides or reorders text.
type NameError struct {
	Rune   rune
	Offset int    // byte offset in the text
	Kind   string // "direction-changing", "invisible", "control"
}

func (e *NameError) Error() string {
	return fmt.Sprintf("must not contain %s characters (U+%04X)", e.Kind, e.Rune)
}

// Kinds of refused characters.
const (
	KindBidi      = "direction-changing"
	KindInvisible = "invisible"
	KindControl   = "control"
)

// CheckName reports whether s may be shown as a name (of a client, service, provider, product,
// location, category, …) to someone who must be able to tell two names apart. It refuses:
//
//   - bidirectional controls (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069): they reorder
//     what follows, so "Ana\u202Eagrom" shows as "Anamorga";
//   - invisible characters: every Unicode format character (zero-width space U+200B, word
//     joiner U+2060, BOM U+FEFF, soft hyphen U+00AD, …), the default-ignorable fillers
//     (U+034F, U+115F, U+3164, U+FFA0, …), the blank braille pattern U+2800, and line or
//     paragraph separators;
//   - control characters (C0, DEL, C1) and text that is not UTF-8.
//
// Some invisible characters carry meaning and are kept where they do: the zero-width
// non-joiner and joiner (U+200C, U+200D) between two letters of one script that uses them
// (Persian "می‌خواهم", Devanagari, Sinhala, …) and the joiner inside emoji sequences
// ("👩‍🎨"); variation selectors after a symbol, an ideograph or a keycap digit ("❤️", "1️⃣");
// Mongolian variation selectors after a Mongolian letter; and tag characters inside a flag
// sequence ("🏴󠁧󠁢󠁳󠁣󠁴󠁿"). Elsewhere they are refused too: "A\u200Dna" is not a name.
//
// It returns nil or a *NameError.
func CheckName(s string) error {
	var prev rune = -1
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return &NameError{Rune: r, Offset: i, Kind: KindInvisible}
		}
		next, nn := utf8.DecodeRuneInString(s[i+n:])
		if nn == 0 {
			next = -1
		}
		switch {
		case r == blackFlag && isTag(next):
			end, ok := flagTags(s, i+n)
			if !ok {
				return &NameError{Rune: next, Offset: i + n, Kind: KindInvisible}
			}
			prev, i = cancelTag, end
			continue
		case isBidi(r):
			return &NameError{Rune: r, Offset: i, Kind: KindBidi}
		case unicode.IsControl(r):
			return &NameError{Rune: r, Offset: i, Kind: KindControl}
		case r == zwnj || r == zwj:
			if !joinerFits(r, prev, next) {
				return &NameError{Rune: r, Offset: i, Kind: KindInvisible}
			}
		case unicode.Is(unicode.Variation_Selector, r):
			if !selectorFits(r, prev) {
				return &NameError{Rune: r, Offset: i, Kind: KindInvisible}
			}
		case unicode.Is(unicode.Cf, r), unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r),
			unicode.In(r, unicode.Zl, unicode.Zp), r == brailleBlank:
			return &NameError{Rune: r, Offset: i, Kind: KindInvisible}
		}
		prev = r
		i += n
	}
	return nil
}

const (
	zwnj         = '\u200C'
	zwj          = '\u200D'
	keycap       = '\u20E3'
	brailleBlank = '\u2800'
	blackFlag    = '\U0001F3F4'
	cancelTag    = '\U000E007F'
)

func isBidi(r rune) bool {
	return r == '\u061C' || r == '\u200E' || r == '\u200F' || ('\u202A' <= r && r <= '\u202E') || ('\u2066' <= r && r <= '\u2069')
}

func isTag(r rune) bool { return '\U000E0020' <= r && r <= '\U000E007F' }

// flagTags reads the tag characters of a flag sequence starting at s[i]: tag letters and digits
// ended by the cancel tag. It returns the offset after the cancel tag.
func flagTags(s string, i int) (int, bool) {
	count := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == cancelTag:
			return i, count > 0
		case ('\U000E0061' <= r && r <= '\U000E007A') || ('\U000E0030' <= r && r <= '\U000E0039'):
			count++
		default:
			return i, false
		}
	}
	return i, false
}

// joiningScripts are the scripts in which the zero-width (non-)joiner changes how letters are
// drawn, so a name in them may need one.
var joiningScripts = []*unicode.RangeTable{
	unicode.Arabic, unicode.Syriac, unicode.Thaana, unicode.Nko, unicode.Mandaic, unicode.Mongolian,
	unicode.Devanagari, unicode.Bengali, unicode.Gurmukhi, unicode.Gujarati, unicode.Oriya, unicode.Tamil,
	unicode.Telugu, unicode.Kannada, unicode.Malayalam, unicode.Sinhala, unicode.Tibetan, unicode.Myanmar,
	unicode.Khmer,
}

func joiningScript(r rune) *unicode.RangeTable {
	if r < 0 || !unicode.In(r, unicode.L, unicode.M) {
		return nil
	}
	for _, t := range joiningScripts {
		if unicode.Is(t, r) {
			return t
		}
	}
	return nil
}

// joinerFits: a (non-)joiner between two letters or marks of the same joining script, or a
// joiner between two emoji.
func joinerFits(r, prev, next rune) bool {
	if s := joiningScript(prev); s != nil && next >= 0 && unicode.Is(s, next) && unicode.In(next, unicode.L, unicode.M) {
		return true
	}
	return r == zwj && isEmojiEnd(prev) && next >= 0 && unicode.Is(unicode.So, next)
}

// isEmojiEnd: the last character of an emoji a joiner may follow (the symbol itself, its
// presentation selector or a skin-tone modifier).
func isEmojiEnd(r rune) bool {
	return r >= 0 && (unicode.Is(unicode.So, r) || r == '\uFE0F' || ('\U0001F3FB' <= r && r <= '\U0001F3FF'))
}

// selectorFits: a variation selector right after something it varies.
func selectorFits(r, prev rune) bool {
	if prev < 0 {
		return false
	}
	if '\u180B' <= r && r <= '\u180F' { // Mongolian free variation selectors
		return unicode.Is(unicode.Mongolian, prev) && unicode.IsLetter(prev)
	}
	return unicode.In(prev, unicode.S, unicode.Han) || ('0' <= prev && prev <= '9') || prev == '#' || prev == '*' || prev == keycap
}
