module frontdesk

go 1.26.8
