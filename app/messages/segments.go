package messages

import "strings"

// Segments of a text (docs/messages.md, "Cost and courtesy"). An SMS carries 140 bytes: 160
// characters of the GSM 03.38 7-bit alphabet, or 70 UTF-16 code units (UCS-2) as soon as one
// character is outside it. A longer text is sent as parts joined again by the phone; each part
// gives up 6 bytes to the joining header, leaving 153 GSM characters or 67 UCS-2 units. A GSM
// extension character (€, [, ], {, }, \, ^, ~, |, form feed) takes two septets (an escape and
// the character), and neither it nor a UTF-16 surrogate pair (an emoji) is split across parts.
// Providers bill per part, so this is what the cost estimate multiplies.

// Encodings of a text.
const (
	EncodingGSM7 = "GSM-7"
	EncodingUCS2 = "UCS-2"
)

// gsmBasic is the GSM 03.38 default alphabet (one septet each).
const gsmBasic = "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?" +
	"¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"

// gsmExtension is the default alphabet's extension table (two septets each).
const gsmExtension = "\f^{}\\[~]|€"

// Segmentation is how a text is sent: its encoding, its length in that encoding's units
// (septets or UTF-16 code units) and how many parts.
type Segmentation struct {
	Encoding string
	Units    int
	Segments int
}

// Segment counts the parts text is sent in.
func Segment(text string) Segmentation {
	gsm := true
	for _, r := range text {
		if !strings.ContainsRune(gsmBasic, r) && !strings.ContainsRune(gsmExtension, r) {
			gsm = false
			break
		}
	}
	// Each character's width in units; a part holds single (one part) or multi (per part of a
	// longer text) units, and a character never straddles two parts.
	var widths []int
	single, multi := 70, 67
	if gsm {
		single, multi = 160, 153
		for _, r := range text {
			w := 1
			if strings.ContainsRune(gsmExtension, r) {
				w = 2
			}
			widths = append(widths, w)
		}
	} else {
		for _, r := range text {
			w := 1
			if r > 0xFFFF {
				w = 2 // a surrogate pair
			}
			widths = append(widths, w)
		}
	}
	s := Segmentation{Encoding: EncodingUCS2}
	if gsm {
		s.Encoding = EncodingGSM7
	}
	for _, w := range widths {
		s.Units += w
	}
	switch {
	case s.Units == 0:
		return s
	case s.Units <= single:
		s.Segments = 1
		return s
	}
	s.Segments = 1
	used := 0
	for _, w := range widths {
		if used+w > multi {
			s.Segments++
			used = 0
		}
		used += w
	}
	return s
}
