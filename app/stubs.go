package app

import "errors"

var errNotYet = errors.New("not available yet")
